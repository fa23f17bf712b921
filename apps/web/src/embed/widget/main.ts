// The widget's iframe page (embed.html), served at /embed/{publicId} with its own CSP.
import { publicIdPattern } from '../common';
import { startWidget } from './app';
import './widget.css';

const originOf = (url: string) => {
  try {
    return url ? new URL(url).origin : null;
  } catch {
    return null;
  }
};

const localStorageOrNull = () => {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
};

const id = /^\/embed\/([^/]+)\/?$/.exec(window.location.pathname)?.[1] ?? '';
const root = document.getElementById('chorus-widget') ?? document.body;

startWidget({
  root,
  publicId: publicIdPattern.test(id) ? id : null,
  embedder: window.location.ancestorOrigins?.[0] ?? originOf(document.referrer),
  parent: window.parent !== window ? window.parent : null,
  storage: localStorageOrNull(),
});
