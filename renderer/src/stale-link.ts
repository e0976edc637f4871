/**
 * What a window says once the host answers its token with 401: the host was started again (each start makes a
 * new token), so this window can never get back in by retrying.
 */
export const STALE_LINK_MESSAGE =
  "This window's link is from an earlier start of Gateway Playground: the app host running now does not accept " +
  'it. Open the address the host printed when it started ("Gateway Playground: http://127.0.0.1:PORT/?token=…", ' +
  'in the terminal where you ran `npm start` or `npm run web`).';
