import { Component, lazy, Suspense, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import './lazy-part.css';

/** The chunk of a lazy part could not be fetched or run. */
class ChunkLoadError extends Error {
  override name = 'ChunkLoadError';
}

/**
 * Stands in for the part while it loads (`failure` undefined) and, with `failure` (the message and its Retry)
 * placed inside, when it could not be loaded.
 */
export type Placeholder<P> = (props: P, failure?: ReactNode) => ReactNode;

interface BoundaryProps {
  what: string;
  failed: (failure: ReactNode) => ReactNode;
  onRetry: () => void;
  children: ReactNode;
}

/** Catches only a chunk that failed to load: any other error goes on up, as it would without this. */
class LoadBoundary extends Component<BoundaryProps, { error?: Error }> {
  override state: { error?: Error } = {};

  static getDerivedStateFromError(error: unknown): { error: Error } {
    return { error: error instanceof Error ? error : new Error(JSON.stringify(error)) };
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (error === undefined) return this.props.children;
    if (!(error instanceof ChunkLoadError)) throw error;
    return this.props.failed(
      <div className="load-failed" role="alert">
        <span>
          Could not load {this.props.what}: {error.message}
        </span>{' '}
        <button
          type="button"
          className="small"
          onClick={() => {
            this.props.onRetry();
            this.setState({ error: undefined });
          }}
        >
          Retry
        </button>
      </div>,
    );
  }
}

/** A lazily loaded part; `preload()` fetches its chunk ahead (tests, or a part about to be needed). */
export type LazyPart<P> = ComponentType<P> & { preload(): Promise<void> };

/**
 * A part of the window whose code is its own chunk, fetched the first time it is shown (docs/architecture.md §9):
 * the start-up script then holds only what the first tab needs. While the chunk loads the placeholder stands
 * in; if it cannot be loaded (the host went away, a file is missing) a message says so with a Retry, which
 * fetches it again. Once loaded, every later mount renders at once, without suspending.
 */
export function lazyPart<P extends object>(
  load: () => Promise<ComponentType<P>>,
  what: string,
  placeholder: Placeholder<P>,
  /** Fetch only once this settles (e.g. `afterStartUp`), showing the placeholder until then. */
  after?: Promise<void>,
): LazyPart<P> {
  // Shared by every mount, so a part is fetched once. A failed fetch is forgotten, so a retry fetches again
  // (a rejected lazy() keeps its rejection: a retry needs a new one).
  const chunk: { loaded?: ComponentType<P>; pending?: Promise<ComponentType<P>>; lazy?: ComponentType<P> } = {};
  const fetchChunk = () =>
    (chunk.pending ??= load().then(
      (component) => (chunk.loaded = component),
      (err: unknown) => {
        chunk.pending = undefined;
        chunk.lazy = undefined;
        throw new ChunkLoadError(err instanceof Error ? err.message : String(err), { cause: err });
      },
    ));
  const lazyComponent = () =>
    (chunk.lazy ??= lazy(async () => ({ default: await fetchChunk() })) as unknown as ComponentType<P>);
  let released = !after;
  void after?.then(() => (released = true));
  function Part(props: P) {
    const [, setAttempt] = useState(0);
    const [waiting, setWaiting] = useState(!released);
    useEffect(() => {
      let mounted = true;
      if (waiting) void after?.then(() => mounted && setWaiting(false));
      return () => {
        mounted = false;
      };
    }, [waiting]);
    if (waiting && !chunk.loaded) return placeholder(props);
    // A mount that began with the lazy wrapper keeps it once loaded: swapping it for the loaded component would be
    // a different element type, and React would remount the part, losing its state and the focus in it.
    const Loaded = chunk.lazy ?? chunk.loaded ?? lazyComponent();
    return (
      <LoadBoundary
        what={what}
        failed={(failure) => placeholder(props, failure)}
        onRetry={() => setAttempt((n) => n + 1)}
      >
        <Suspense fallback={placeholder(props)}>
          <Loaded {...props} />
        </Suspense>
      </LoadBoundary>
    );
  }
  Part.displayName = `Lazy(${what})`;
  const part = Object.assign(Part, { preload: () => fetchChunk().then(() => undefined) });
  made.push(part);
  return part;
}

const made: { preload(): Promise<void> }[] = [];

/** Fetches every part made so far: the renderer tests render the parts they import as loaded. */
export async function preloadLazyParts(): Promise<void> {
  await Promise.all(made.map((p) => p.preload()));
}

let markStarted: () => void = () => undefined;
/** The first screen's data arrived, or the wait for it gave up: see `startUpEnded`. */
const firstScreen = new Promise<void>((resolve) => {
  markStarted = resolve;
  // A window whose data never comes (a host down at start) still gets its parts, a little later.
  setTimeout(resolve, 3000);
});

/** main.tsx: the first screen has what it shows (Send can work), so the parts fetched after start-up may come. */
export function startUpEnded(): void {
  markStarted();
}

/**
 * Settles once the window has started: its scripts and styles loaded, the first screen's data arrived, and
 * the first idle moment after that. A part wanted soon but not first (the JSON editor below the form, the
 * Markdown renderer) then does not compete with the first paint or with Send becoming ready: idle moments come
 * while the window waits on the core, and a chunk evaluated then delays the answers' render.
 */
export const afterStartUp: Promise<void> = Promise.all([
  new Promise<void>((resolve) => {
    if (document.readyState === 'complete') resolve();
    else addEventListener('load', () => resolve(), { once: true });
  }),
  firstScreen,
]).then(
  () =>
    new Promise<void>((resolve) => {
      if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout: 2000 });
      else setTimeout(resolve, 0);
    }),
);
