/**
 * One "Connect an agent" session (docs/agents.md, "Connect a real agent"; docs/security.md §12): an HTTP server
 * on 127.0.0.1 at a free port for one profile, a token made for this session that the agent uses as its key,
 * and every exchange forwarded to the profile's gateway and kept as a run (origin "agent").
 */
import http from 'node:http';
import { randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import {
  MAX_PAYLOAD_BYTES,
  type AgentConnection,
  type AgentKind,
  type AgentTurn,
  type Ledger,
  type RunUpdate,
} from '../../../shared/contract';
import { nextStep } from '../../../shared/agents/next-step';
import type { ProfileStore } from '../profiles';
import type { RunManager } from '../runs';
import { agentKindOf } from './agent-kind';
import { checkOrigin, checkToken, errorBody, routeOf, type Refusal } from './guard';
import { buildExchange, judgeAux, teeTo, type AgentRequest } from './forward';
import { scrub } from '../secrets';
import { retryFacts } from '../agents/retries';

export interface SessionDeps {
  profiles: ProfileStore;
  runs: RunManager;
  /** A turn started or changed. */
  onTurn(turn: AgentTurn): void;
}

export class AgentSession {
  readonly sessionId = `agent_${randomUUID()}`;
  readonly token = `gp-local-${randomBytes(24).toString('base64url')}`;
  readonly turns = new Map<string, AgentTurn>();
  private readonly inFlight = new Set<string>();
  private closed = false;

  private constructor(
    private readonly server: http.Server,
    readonly profileId: string,
    private readonly profileName: string,
    private readonly deps: SessionDeps,
    private readonly startedAt = new Date().toISOString(),
  ) {}

  static async open(profileId: string, deps: SessionDeps): Promise<AgentSession> {
    const profile = deps.profiles.get(profileId);
    if (!profile) throw new Error(`No profile with id ${profileId}.`);
    const server = http.createServer(SERVER_LIMITS);
    // A few agents with a handful of connections each; more is something else holding the port.
    server.maxConnections = MAX_CONNECTIONS;
    const session = new AgentSession(server, profileId, profile.name, deps);
    server.on('request', (req, res) => session.handleSafely(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    return session;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  connection(): AgentConnection {
    const baseUrl = `http://127.0.0.1:${this.port}`;
    return {
      sessionId: this.sessionId,
      profileId: this.profileId,
      profileName: this.profileName,
      port: this.port,
      baseUrl,
      token: this.token,
      startedAt: this.startedAt,
    };
  }

  /** The port stops listening, open connections are cut and exchanges in flight are stopped. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const runId of this.inFlight) this.deps.runs.cancel(runId);
    const done = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await done;
  }

  /** Never throws out of the server's listener: an uncaught error would take the host down with it. */
  private handleSafely(req: http.IncomingMessage, res: http.ServerResponse): void {
    try {
      this.handle(req, res);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      failed(req, res, { status: 500, type: 'api_error', message: scrub(message, this.secrets()) });
    }
  }

  private secrets(): readonly string[] {
    return this.deps.profiles.secretsFor(this.profileId);
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const versioned = req.headers['anthropic-version'] !== undefined;
    let firstFamily = (req.url ?? '').startsWith('/v1/messages') || versioned;
    const refuse = (r: Refusal) => failed(req, res, r, firstFamily);
    // Host and Origin before anything of the request is read (docs/security.md §12).
    const wrongPlace = checkOrigin(req.headers, this.port);
    if (wrongPlace) return refuse(wrongPlace);
    const url = parsedTarget(req.url);
    if (!url)
      return refuse({ status: 400, type: 'invalid_request_error', message: 'The request target is not a path.' });
    firstFamily = url.pathname.startsWith('/v1/messages') || versioned;
    // Claude Code probes the base URL with a bare HEAD before it starts.
    if (req.method === 'HEAD' && url.pathname === '/') {
      res.writeHead(200).end();
      return;
    }
    const badToken = checkToken(req.headers, this.token);
    if (badToken) return refuse(badToken);
    const route = routeOf(req.method, url.pathname);
    if (!route)
      return refuse({
        status: 404,
        type: 'not_found_error',
        message: `${req.method} ${url.pathname} is not forwarded: only the five gateway paths are.`,
      });
    readCapped(
      req,
      () => refuse(TOO_LARGE),
      (body) => {
        try {
          this.forward({ route, search: url.search, headers: req.headers, body }, res, firstFamily);
        } catch (err) {
          // A profile whose base URL no longer parses, say: the agent is told, the core goes on.
          const message = err instanceof Error ? err.message : String(err);
          refuse({
            status: 502,
            type: 'api_error',
            message: scrub(message, this.secrets()),
          });
        }
      },
    );
  }

  private forward(agentReq: AgentRequest, res: http.ServerResponse, firstFamily: boolean): void {
    const { profiles, runs } = this.deps;
    const profile = profiles.get(this.profileId);
    if (!profile) {
      res.writeHead(410, { 'content-type': 'application/json' });
      res.end(errorBody(firstFamily, { status: 410, type: 'not_found_error', message: 'The profile was deleted.' }));
      return;
    }
    const key = profiles.keyFor(profile.id);
    const runId = `run_${randomUUID()}`;
    const built = buildExchange(
      runId,
      profile,
      key,
      profiles.secretsFor(profile.id),
      agentReq,
      this.token,
      this.sessionId,
    );
    const agent = agentKindOf(agentReq.headers, agentReq.route);
    const sink = { push: (u: RunUpdate) => this.update(u, agent) };
    const { route } = agentReq;
    const send = teeTo(res, key, firstFamily);
    this.inFlight.add(runId);
    // The agent hung up before its answer was complete: the run stops there, as the agent did.
    res.on('close', () => {
      if (!res.writableFinished) runs.cancel(runId);
    });
    const { done } = runs.startBuilt(
      { runId, protocol: route.protocol, req: built.req, ledger: built.ledger, key, send },
      sink,
      {
        origin: 'agent',
        judge: judgeAux(route),
      },
    );
    void done.then((run) => {
      this.inFlight.delete(runId);
      if (res.headersSent) return;
      // No answer from the gateway at all (refused, a timeout): the agent gets the reason, in its family's shape.
      const status = run.result.verdict === 'timeout' ? 504 : 502;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(errorBody(firstFamily, { status, type: 'api_error', message: run.result.reason }));
    });
  }

  /** A run's updates as the session's turn: started, answered, ended with its verdict and what the agent does next. */
  private update(u: RunUpdate, agent: AgentKind): void {
    if (u.kind === 'events') return;
    const turn = u.kind === 'started' ? startedTurn(u.ledger, this.sessionId, agent) : this.turns.get(u.runId);
    if (!turn) return;
    if (u.kind === 'response') turn.status = u.response.status;
    if (u.kind === 'end') {
      const { result } = u;
      Object.assign(turn, {
        status: result.metrics.status,
        verdict: result.verdict,
        reason: result.reason,
        ttftMs: result.metrics.ttftMs,
        totalMs: result.metrics.totalMs,
        inputTokens: result.metrics.usage.inputTotal,
        outputTokens: result.metrics.usage.output,
        next: nextStep(
          agent,
          { status: result.metrics.status, verdict: result.verdict, message: result.error?.message ?? result.reason },
          retryFacts(agent, result.metrics.status),
        ),
      });
    }
    this.turns.set(turn.runId, turn);
    this.deps.onTurn({ ...turn });
  }
}

function startedTurn(ledger: Ledger, sessionId: string, agent: AgentKind): AgentTurn {
  return {
    runId: ledger.runId,
    sessionId,
    method: ledger.method,
    path: ledger.path ?? '',
    agent,
    ...(ledger.model ? { model: ledger.model } : {}),
    startedAt: ledger.startedAt,
  };
}

/** The request's path and query, or undefined for a target that is not one (`//[`, `http://[x`). */
function parsedTarget(target: string | undefined): URL | undefined {
  try {
    return new URL(target ?? '/', 'http://local');
  } catch {
    return undefined;
  }
}

/**
 * A refusal or an error in the family's shape. The body is not read: the connection is not kept for another
 * request. Headers already sent (an error mid-answer): the connection is cut instead.
 */
function failed(req: http.IncomingMessage, res: http.ServerResponse, r: Refusal, firstFamily = false): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(r.status, { 'content-type': 'application/json', connection: 'close' }).end(errorBody(firstFamily, r));
  res.once('finish', () => req.destroy());
}

const MAX_CONNECTIONS = 32;

/**
 * A client that opens a connection and sends its head or body slowly cannot hold it for ever. requestTimeout
 * bounds receiving the request (a body up to MAX_PAYLOAD_BYTES on a slow link), not the answer: a long streamed
 * answer is not cut.
 */
const SERVER_LIMITS: http.ServerOptions = {
  headersTimeout: 10_000,
  requestTimeout: 120_000,
  connectionsCheckingInterval: 1_000,
};

const TOO_LARGE: Refusal = {
  status: 413,
  type: 'request_too_large',
  message: `The request body is over ${MAX_PAYLOAD_BYTES} bytes.`,
};

/**
 * Past this much, the connection is cut rather than read to its end. Up to it, an oversized body is read and
 * dropped before the 413 goes out: answering while the agent is still sending would close a socket it writes
 * to, and it would see a reset instead of the 413 (docs/security.md §12).
 */
const DRAIN_LIMIT = 4 * MAX_PAYLOAD_BYTES;

/** The whole body, or `tooLarge()` once it is over MAX_PAYLOAD_BYTES (declared or sent) and has been read. */
function readCapped(req: http.IncomingMessage, tooLarge: () => void, done: (body: Buffer) => void): void {
  if (Number(req.headers['content-length'] ?? 0) > DRAIN_LIMIT) return tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  let refused = false;
  req.on('data', (chunk: Buffer) => {
    size += chunk.byteLength;
    if (size <= MAX_PAYLOAD_BYTES) chunks.push(chunk);
    else chunks.length = 0;
    if (size > DRAIN_LIMIT && !refused) {
      refused = true;
      tooLarge();
    }
  });
  req.on('end', () => {
    if (size <= MAX_PAYLOAD_BYTES) done(Buffer.concat(chunks));
    else if (!refused) tooLarge();
  });
}
