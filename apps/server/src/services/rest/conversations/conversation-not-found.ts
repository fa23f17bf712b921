import { ApiError } from '../../../http/errors.ts';

/** Someone else's conversation and a missing one look the same from outside. */
export const conversationNotFound = () => new ApiError(404, 'conversations:not_found');
