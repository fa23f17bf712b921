import { ApiError } from '../../../http/errors.ts';

/** Someone else's file and a missing one look the same from outside. */
export const fileNotFound = () => new ApiError(404, 'storage:not_found');

export const storageUnavailable = () => new ApiError(503, 'storage:unavailable');
