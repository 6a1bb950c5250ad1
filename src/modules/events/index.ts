/** The events module's public entry: the outbox every module writes events to, and its subscribers. */
export {
  deleteProfileEvents,
  EVENT_TYPES,
  type EventType,
  emit,
  eventEnvelopes,
  type RecordedEvent,
  recordEvent,
  subscribe,
} from './service.ts';
