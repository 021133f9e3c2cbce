/**
 * A list that keeps its first `limit` entries and counts the rest: a live trace may run for days, and a report
 * with a million identical findings is no more useful than one with a thousand and a count.
 */
export class BoundedList<T> {
  readonly #limit: number;
  readonly items: T[] = [];
  omitted = 0;

  constructor(limit: number) {
    this.#limit = limit;}

  /** Adds `item` if there is room; true if it was kept. */
  push(item: T): boolean {
    if (this.items.length < this.#limit) {
      this.items.push(item);
      return true;
    }
    this.omitted++;
    return false;
  }
}
