/** What $name$ answers: the $aggregate$ as it is kept. */
export type $name$Result = $aggregate$Snapshot;
