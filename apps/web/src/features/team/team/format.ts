const numbers = new Intl.NumberFormat('en-US');

/** 100000 -> "100,000". */
export const formatNumber = (value: number) => numbers.format(value);

export const plural = (count: number, word: string, many = `${word}s`) =>
  `${formatNumber(count)} ${count === 1 ? word : many}`;

/** What a person is called in lists: their full name, else their username. */
export const displayName = (user: { fullName: string; preferredName?: string; username: string }) =>
  user.preferredName || user.fullName || user.username;
