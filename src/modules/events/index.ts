/** The events module's public entry: the outbox every module writes events to, and its subscribers. */
export {
  deleteProfileEvents,
  EVENT_TYPES,
  type EventStatementPart,
  type EventType,
  emit,
  emitAll,
  emitInChange,
  eventEnvelopes,
  type NewEvent,
  type RecordedEvent,
  recordEvent,
  subscribe,
} from './service.ts';
