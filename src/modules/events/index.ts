/** The events module's public entry: the outbox every module writes events to, and its subscribers. */
export {
  EVENT_TYPES,
  type EventSubscriber,
  type EventType,
  emit,
  joinEvent,
  type NewEvent,
  type RecordedEvent,
  recordEvent,
  subscribe,
} from './service.ts';
