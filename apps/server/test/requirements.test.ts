import { describe, expect, it } from 'vitest';
import { metByInterpreter } from '../src/compute/requirements.js';

const own = new Map([
  ['distributed', '2022.12.1+ds.1'],
  ['dask', '2022.12.1'],
  ['tornado', '6.2'],
  ['msgpack', '1.0.3'],
]);

describe('a requirement the interpreter meets already (pip is then not run)', () => {
  it('is met by the same version, a matching prefix, or a range around it', () => {
    expect(metByInterpreter('distributed==2022.12.1+ds.1', own)).toBe(true);
    expect(metByInterpreter('dask==2022.12.*', own)).toBe(true);
    expect(metByInterpreter('tornado~=6.1', own)).toBe(true);
    expect(metByInterpreter('msgpack>=1.0.3,<1.1', own)).toBe(true);
    expect(metByInterpreter('Dask >= 2022.1', own)).toBe(true);
  });

  it('is not met by another version, a missing package, or what only pip can judge', () => {
    expect(metByInterpreter('dask==2022.12.0', own)).toBe(false);
    expect(metByInterpreter('tornado~=6.3', own)).toBe(false);
    expect(metByInterpreter('msgpack>=1.0.3,<1.0.3', own)).toBe(false);
    expect(metByInterpreter('numpy==1.26.0', own)).toBe(false);
    expect(metByInterpreter('dask', own)).toBe(false);
    expect(metByInterpreter('dask[dataframe]==2022.12.1', own)).toBe(false);
    expect(metByInterpreter('dask==2022.12.1; python_version>"3"', own)).toBe(false);
    expect(metByInterpreter('/data/wheels/pkg-0.1-py3-none-any.whl', own)).toBe(false);
  });
});
