// Everything that leaves a trace in the activity feed goes through here, so the
// events endpoints report what really happened.

import type { EventAction, EventRecord, NoteableType, NoteRecord, PushData, State } from '../model.js';
import { nextId } from '../model.js';

export interface EventInput {
  project_id: number;
  author_id: number;
  action: EventAction;
  target_type: EventRecord['target_type'];
  target_id: number | null;
  push_data?: PushData;
}

export function recordEvent(state: State, input: EventInput, at: Date): EventRecord {
  const event: EventRecord = {
    id: nextId(state, 'events'),
    project_id: input.project_id,
    author_id: input.author_id,
    action: input.action,
    target_type: input.target_type,
    target_id: input.target_id,
    created_at: at.toISOString(),
    push_data: input.push_data ?? null,
  };
  state.events.set(event.id, event);
  const project = state.projects.get(input.project_id);
  if (project) project.last_activity_at = event.created_at;
  return event;
}

export interface NoteInput {
  project_id: number;
  noteable_type: NoteableType;
  noteable_id: number;
  author_id: number;
  body: string;
}

/** A comment and its "commented on" event. */
export function addNote(state: State, input: NoteInput, at: Date): NoteRecord {
  const note: NoteRecord = {
    id: nextId(state, 'notes'),
    project_id: input.project_id,
    noteable_type: input.noteable_type,
    noteable_id: input.noteable_id,
    body: input.body,
    author_id: input.author_id,
    created_at: at.toISOString(),
    updated_at: at.toISOString(),
    system: false,
  };
  state.notes.set(note.id, note);
  recordEvent(
    state,
    {
      project_id: input.project_id,
      author_id: input.author_id,
      action: 'commented',
      target_type: 'Note',
      target_id: note.id,
    },
    at,
  );
  return note;
}
