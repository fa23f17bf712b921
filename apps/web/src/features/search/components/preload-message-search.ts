/** The dialog's code, asked for when someone is about to open it (hover, focus). */
export const preloadMessageSearch = () => import('./message-search-dialog');
