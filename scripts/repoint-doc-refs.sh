#!/usr/bin/env bash
# Repoints comments at the design documents that used to live outside the repository to their copies in docs/:
#   design.md §N      -> docs/architecture.md §N   (same section numbers)
#   protocols.md §N   -> docs/protocols.md §N      (same section numbers)
#   sources.md §N     -> docs/protocols.md §SN     (its "Sources" part; §3.4 becomes §S3.4)
# then deletes scripts/doc-refs-pending.txt, so scripts/doc-refs.test.ts holds every file to the rule.
# Run once from a clean tree after merging, check with `npx vitest run scripts/doc-refs.test.ts`, commit.
set -euo pipefail
cd "$(dirname "$0")/.."

# Not after a slash, a word character, a dot or a dash: `docs/protocols.md` and URLs stay as they are.
B='(^|[^/[:alnum:]_.-])'
mapfile -t files < <(git grep -lE "${B}(design|protocols|sources)\.md" -- . \
  ':!*.md' ':!package-lock.json' ':!scripts/repoint-doc-refs.sh' ':!scripts/doc-refs.test.ts' \
  ':!scripts/doc-refs-pending.txt' || true)

if ((${#files[@]})); then
  sed -i -E \
    -e "s#${B}design\.md#\1docs/architecture.md#g" \
    -e "s#${B}sources\.md §([0-9][0-9.]*)[–-]([0-9][0-9.]*)#\1docs/protocols.md §S\2–S\3#g" \
    -e "s#${B}sources\.md §#\1docs/protocols.md §S#g" \
    -e "s#${B}sources\.md#\1docs/protocols.md (Sources)#g" \
    -e "s#${B}protocols\.md#\1docs/protocols.md#g" \
    "${files[@]}"
fi
rm -f scripts/doc-refs-pending.txt
echo "repointed ${#files[@]} files"
