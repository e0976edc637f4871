/**
 * Collections as a tree for the Presets tab: folders (stored ones and those requests sit in) with their
 * requests in the order the user arranged, and the variables a request in a folder sees.
 */
import type { Folder, Preset } from '../../../../shared/contract';

export interface FolderNode {
  path: string[];
  name: string;
  variables: Record<string, string>;
  folders: FolderNode[];
  requests: Preset[];
  /** Requests at or under this folder: what Run collection sends. */
  total: number;
}

export const pathKey = (path: readonly string[]) => path.join('\u0000');

/** The root node: requests outside every folder, then the top-level folders. */
export function buildTree(presets: readonly Preset[], folders: readonly Folder[]): FolderNode {
  const root: FolderNode = { path: [], name: '', variables: {}, folders: [], requests: [], total: 0 };
  const nodes = new Map<string, FolderNode>([[pathKey([]), root]]);
  const nodeFor = (path: string[]): FolderNode => {
    const key = pathKey(path);
    const found = nodes.get(key);
    if (found) return found;
    const parent = nodeFor(path.slice(0, -1));
    const variables = folders.find((f) => pathKey(f.path) === key)?.variables ?? {};
    const node: FolderNode = { path, name: path.at(-1)!, variables, folders: [], requests: [], total: 0 };
    nodes.set(key, node);
    parent.folders.push(node);
    return node;
  };
  for (const f of folders) nodeFor(f.path);
  for (const p of presets) nodeFor(p.folder ?? []).requests.push(p);
  const count = (n: FolderNode): number => (n.total = n.requests.length + n.folders.reduce((t, f) => t + count(f), 0));
  count(root);
  return root;
}

/** Every folder path, parents first, for "Move to". */
export function allFolders(node: FolderNode): string[][] {
  return node.folders.flatMap((f) => [f.path, ...allFolders(f)]);
}

export { scopeFor } from '../../../../shared/collections/variables';
