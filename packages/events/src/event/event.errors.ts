import { ApiError } from '../http/errors.ts';

// The plugin's answers about an event that is not there (any more) or cannot take the request, shared by the routes
// and the writer, which finds out only inside its transaction that a concurrent write deleted or trashed the event.

/** 404 `rest-event-not-found`: no event has this id (or slug), or a concurrent write deleted it. */
export const eventNotFound = (id: string | number): ApiError =>
  new ApiError('rest-event-not-found', `Event with ID ${id} does not exist.`);

/** 400 `rest-invalid-event-id`: the id is a post of another type. */
export const notAnEvent = (): ApiError =>
  new ApiError('rest-invalid-event-id', 'The specified ID is not a valid event.');

/** 410 `event-is-in-trash`: a delete of an event already trashed (by this request's caller or a concurrent one). */
export const eventInTrash = (): ApiError => new ApiError('event-is-in-trash', 'The event is already trashed');
