import { offsetOf } from '../alerts/spread.js';

// Where SQLite keeps a person's alert row. A table's rows lie in rowid order, and each batch a poll claims (then
// records) is the people due at about the same moment: whose slot of the minute (alerts/spread.ts) is close. Rows
// given rowids in slot order put a batch on a few pages instead of a page each, so each write of a batch adds a few
// pages to the WAL (and to its checkpoint) instead of one per person. Only where the row lies changes, never what
// is read. PostgreSQL places rows itself, so this is SQLite's only.

const MINUTE = 60_000;
/** Rowids each millisecond of the minute has room for (people whose slots share a millisecond). */
const PER_SLOT = 2 ** 20;

/** The first rowid of the range of `personKey`'s slot; ordinary rowids (1, 2, …) lie below every range. */
export const rowIdBaseOf = (personKey: string): number => (offsetOf(personKey, MINUTE) + 1) * PER_SLOT;

/** Whether a row lies in its slot's range (one written before rows were placed, or by hand, does not). */
export const isPlaced = (rowId: number, personKey: string): boolean => {
  const base = rowIdBaseOf(personKey);
  return rowId >= base && rowId < base + PER_SLOT;
};

/**
 * The rowid a new row takes (`$base`: rowIdBaseOf its key): the next one free in its slot's range, so the insert
 * never meets a taken rowid while the range has room.
 */
export const nextRowIdIn = (base: string) =>
  `(SELECT coalesce(max(rowid), ${base} - 1) + 1 FROM alert_settings WHERE rowid >= ${base} AND rowid < ${base} + ${PER_SLOT})`;
