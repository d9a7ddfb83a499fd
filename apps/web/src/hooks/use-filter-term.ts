import * as React from 'react';

/**
 * A search bar's text, turned into a filter on Enter: `parse` answers the filter, a problem to
 * show under the bar, or null for nothing typed; `add` takes a good filter (and the text clears).
 */
export function useFilterTerm<F>(
  parse: (term: string) => F | { problem: string } | null,
  add: (filter: F) => void,
) {
  const [term, setTermState] = React.useState('');
  const [problem, setProblem] = React.useState<string | null>(null);
  const setTerm = (next: string) => {
    setTermState(next);
    setProblem(null);
  };
  function submit(event: React.FormEvent) {
    event.preventDefault();
    const parsed = parse(term);
    if (!parsed) return;
    if (typeof parsed === 'object' && 'problem' in parsed) {
      setProblem(parsed.problem);
      return;
    }
    setTermState('');
    add(parsed as F);
  }
  return { term, setTerm, problem, submit };
}
