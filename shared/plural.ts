/**
 * "1 model", "2 models": every count shown to the user goes through here, so none reads "1 models".
 * `many` is for the words that do not just take an s ("1 entry", "2 entries"); `shown` formats the number.
 */
export function plural(n: number, one: string, many = `${one}s`, shown: (n: number) => string = String): string {
  return `${shown(n)} ${n === 1 ? one : many}`;
}
