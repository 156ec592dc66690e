// A binary Merkle tree over sha256, as the agent's commitment to data too large to send (the rows of
// a big matrix product). Leaves and inner nodes are hashed with different prefixes (0x00, 0x01) so a
// leaf can never pass for an inner node (RFC 6962 §2.1). A level of odd length carries its last node
// up unchanged; the verifier knows the leaf count, so it knows where that happens.
import { createHash } from 'node:crypto';

export const HASH_BYTES = 32;

export function leafHash(data: Uint8Array): Uint8Array {
  return createHash('sha256').update(Uint8Array.of(0)).update(data).digest();
}

function nodeHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  return createHash('sha256').update(Uint8Array.of(1)).update(left).update(right).digest();
}

const toHex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** Every level of the tree, leaves first; the last level holds the root alone. */
export function merkleLevels(leafHashes: readonly Uint8Array[]): Uint8Array[][] {
  if (leafHashes.length === 0) throw new RangeError('a Merkle tree needs at least one leaf');
  const levels: Uint8Array[][] = [leafHashes.slice()];
  let level = levels[0] as Uint8Array[];
  while (level.length > 1) {
    const next: Uint8Array[] = [];
    for (let index = 0; index < level.length; index += 2) {
      const left = level[index] as Uint8Array;
      const right = level[index + 1];
      next.push(right === undefined ? left : nodeHash(left, right));
    }
    levels.push(next);
    level = next;
  }
  return levels;
}

export function merkleRootHex(levels: readonly Uint8Array[][]): string {
  const top = levels[levels.length - 1]?.[0];
  if (!top) throw new RangeError('empty tree');
  return toHex(top);
}

/** The sibling hashes from leaf `index` up to the root, in hex (levels where it has none are skipped). */
export function merklePath(levels: readonly Uint8Array[][], index: number): string[] {
  const path: string[] = [];
  let position = index;
  for (let depth = 0; depth < levels.length - 1; depth++) {
    const level = levels[depth] as Uint8Array[];
    const sibling = level[position ^ 1];
    if (sibling !== undefined) path.push(toHex(sibling));
    position >>>= 1;
  }
  return path;
}

/** True when `path` leads from the leaf hash at `index` of a `leafCount`-leaf tree to `rootHex`. */
export function verifyMerklePath(
  leaf: Uint8Array,
  index: number,
  leafCount: number,
  path: readonly string[],
  rootHex: string,
): boolean {
  if (!Number.isInteger(index) || index < 0 || index >= leafCount) return false;
  let hash = leaf;
  let position = index;
  let width = leafCount;
  let used = 0;
  while (width > 1) {
    const hasSibling = (position ^ 1) < width;
    if (hasSibling) {
      const siblingHex = path[used];
      if (siblingHex === undefined || !/^[0-9a-f]{64}$/.test(siblingHex)) return false;
      used++;
      const sibling = Buffer.from(siblingHex, 'hex');
      hash = position % 2 === 0 ? nodeHash(hash, sibling) : nodeHash(sibling, hash);
    }
    position >>>= 1;
    width = Math.ceil(width / 2);
  }
  return used === path.length && toHex(hash) === rootHex;
}
