/** One page of $plural$, by id, and how many there are in all. */
export interface $name$Result {
  readonly items: readonly $aggregate$Snapshot[];
  readonly total: number;
  readonly page: number;
  readonly pageSize: number;
}
