/**
 * The lines a user pastes to point a real agent at the agent endpoint (docs/agents.md, "Connect a real agent").
 * The token is the session's local one, never the profile's key.
 */

export interface PasteLine {
  id: string;
  /** Accessible name and heading of the line. */
  label: string;
  text: string;
}

/** A model id as one shell word: quoted unless it is plainly safe. */
const word = (s: string) => (/^[A-Za-z0-9._:/@-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`);

export function connectLines(baseUrl: string, token: string, model?: string, smallModel?: string): PasteLine[] {
  const v1 = `${baseUrl}/v1`;
  const m = model ? word(model) : 'MODEL';
  const claudeModels = model
    ? ` ANTHROPIC_MODEL=${word(model)} ANTHROPIC_SMALL_FAST_MODEL=${word(smallModel ?? model)}`
    : '';
  const provider = `model_providers.gp={name="Gateway Playground",base_url="${v1}",env_key="GP_AGENT_TOKEN",wire_api="responses"}`;
  return [
    {
      id: 'claude-code',
      label: 'Claude Code',
      text: `ANTHROPIC_BASE_URL=${baseUrl} ANTHROPIC_API_KEY=${token}${claudeModels} claude`,
    },
    {
      id: 'codex',
      label: 'Codex CLI',
      text: `GP_AGENT_TOKEN=${token} codex -c model_provider=gp -c '${provider}' -m ${m}`,
    },
    {
      id: 'codex-config',
      label: 'config.toml for Codex CLI',
      text: [
        'model_provider = "gp"',
        `model = "${model ?? 'MODEL'}"`,
        '',
        '[model_providers.gp]',
        'name = "Gateway Playground"',
        `base_url = "${v1}"`,
        'env_key = "GP_AGENT_TOKEN"',
        'wire_api = "responses"',
        '',
        `# then run: GP_AGENT_TOKEN=${token} codex`,
      ].join('\n'),
    },
    {
      id: 'chat',
      label: 'Chat-completions agent',
      text: `OPENAI_BASE_URL=${v1} OPENAI_API_KEY=${token}${model ? ` OPENAI_MODEL=${word(model)}` : ''}`,
    },
  ];
}
