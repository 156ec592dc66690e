// matrix_multiply: the agent commits to C by a Merkle root over its rows; the server picks
// MATRIX_OPENED_ROWS random rows, the agent opens them, and the server recomputes each from A and B
// (O(rows opened × inner × cols), a few thousandths of the job at 2048³). A product with a share f
// of wrong rows passes with probability (1 − f)^4 at most, and a cheap projection (C·r from
// A·(B·r), the checksum from (1ᵀA)(B1)) gives no rows at all.
import { endianness } from 'node:os';
import {
  MATRIX_OPENED_ROWS,
  type MatrixMultiplyChallenge,
  type MatrixMultiplyCommitment,
  type MatrixMultiplyOpening,
  type MatrixMultiplyResult,
} from '@fabric/contract';
import { agreementTolerance } from '../../float-bounds.ts';
import type { VerificationOutcome } from '../../verification.ts';
import { forEachMatrixRow, type ResolvedMatrixParams } from '../../params.ts';
import { challengeVector } from '../../random.ts';
import {
  HASH_BYTES,
  leafHash,
  merkleLevels,
  merklePath,
  merkleRootHex,
  verifyMerklePath,
} from '../../proofs/merkle.ts';
import { distinctRandomIndices, type RandomInt } from '../../proofs/random-choice.ts';

const IS_LITTLE_ENDIAN = endianness() === 'LE';

/** A row's float64 values as little-endian bytes (the leaf and the opening's data). */
function rowBytes(row: Float64Array): Uint8Array {
  if (IS_LITTLE_ENDIAN) return new Uint8Array(row.buffer, row.byteOffset, row.byteLength);
  const bytes = Buffer.alloc(row.length * 8);
  row.forEach((value, index) => bytes.writeDoubleLE(value, index * 8));
  return bytes;
}

function bytesToRow(bytes: Uint8Array): Float64Array {
  const row = new Float64Array(bytes.length / 8);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let index = 0; index < row.length; index++) row[index] = view.getFloat64(index * 8, true);
  return row;
}

/** What the agent keeps after committing: C and the hash of every row. */
export interface MatrixWitness {
  kind: 'matrix_multiply';
  c: Float64Array;
  rows: number;
  cols: number;
  /** rows × HASH_BYTES: the leaf hashes, so opening needs no second pass over C. */
  leafHashes: Uint8Array;
}

export function commitMatrixProduct(
  c: Float64Array,
  rows: number,
  cols: number,
): { commitment: MatrixMultiplyCommitment; witness: MatrixWitness } {
  const leafHashes = new Uint8Array(rows * HASH_BYTES);
  for (let row = 0; row < rows; row++) {
    leafHashes.set(leafHash(rowBytes(c.subarray(row * cols, (row + 1) * cols))), row * HASH_BYTES);
  }
  const levels = merkleLevels(splitHashes(leafHashes));
  return {
    commitment: { merkle_root: merkleRootHex(levels) },
    witness: { kind: 'matrix_multiply', c, rows, cols, leafHashes },
  };
}

function splitHashes(concatenated: Uint8Array): Uint8Array[] {
  const hashes: Uint8Array[] = [];
  for (let offset = 0; offset < concatenated.length; offset += HASH_BYTES) {
    hashes.push(concatenated.subarray(offset, offset + HASH_BYTES));
  }
  return hashes;
}

export function drawMatrixChallenge(
  params: ResolvedMatrixParams,
  randomInt: RandomInt,
): MatrixMultiplyChallenge {
  return { rows: distinctRandomIndices(params.rows, MATRIX_OPENED_ROWS, randomInt) };
}

export function openMatrixRows(
  witness: MatrixWitness,
  challenge: MatrixMultiplyChallenge,
): MatrixMultiplyOpening {
  const levels = merkleLevels(splitHashes(witness.leafHashes));
  return {
    rows: challenge.rows.map((index) => ({
      index,
      data: Buffer.from(
        rowBytes(witness.c.subarray(index * witness.cols, (index + 1) * witness.cols)),
      ).toString('base64'),
      path: merklePath(levels, index),
    })),
  };
}

const fail = (reason: string): VerificationOutcome => ({ ok: false, reason });

/** Rows `indices` of A·B with the magnitude |A|·|B| of each entry, in one pass over B. */
function productRows(
  params: ResolvedMatrixParams,
  indices: readonly number[],
): { values: Float64Array[]; magnitudes: Float64Array[] } {
  const { cols } = params;
  const wanted = new Map<number, Float64Array>();
  for (const index of indices) wanted.set(index, new Float64Array(0));
  forEachMatrixRow(params, 'a', (row, rowIndex) => {
    if (wanted.has(rowIndex)) wanted.set(rowIndex, row.slice());
  });
  const aRows = indices.map((index) => wanted.get(index) ?? new Float64Array(0));
  const values = indices.map(() => new Float64Array(cols));
  const magnitudes = indices.map(() => new Float64Array(cols));
  forEachMatrixRow(params, 'b', (bRow, k) => {
    aRows.forEach((aRow, position) => {
      const weight = aRow[k] ?? 0;
      if (weight === 0) return;
      const value = values[position] as Float64Array;
      const magnitude = magnitudes[position] as Float64Array;
      const absoluteWeight = Math.abs(weight);
      for (let j = 0; j < cols; j++) {
        const entry = bRow[j] as number;
        value[j] = (value[j] as number) + weight * entry;
        magnitude[j] = (magnitude[j] as number) + absoluteWeight * Math.abs(entry);
      }
    });
  });
  return { values, magnitudes };
}

/** Checks the opened rows against the commitment, against A·B recomputed, and against the result. */
export function verifyMatrixOpening(
  params: ResolvedMatrixParams,
  result: MatrixMultiplyResult,
  commitment: MatrixMultiplyCommitment,
  challenge: MatrixMultiplyChallenge,
  opening: MatrixMultiplyOpening,
  challengeSeed: number,
): VerificationOutcome {
  const { rows, inner, cols } = params;
  if (opening.rows.length !== challenge.rows.length) {
    return fail(
      `the opening holds ${opening.rows.length} rows, the challenge asked for ${challenge.rows.length}`,
    );
  }
  const decoded: Float64Array[] = [];
  for (const [position, opened] of opening.rows.entries()) {
    const expectedIndex = challenge.rows[position];
    if (opened.index !== expectedIndex) {
      return fail(
        `opened row ${opened.index} where the challenge asked for row ${expectedIndex ?? '?'}`,
      );
    }
    const bytes = Buffer.from(opened.data, 'base64');
    if (bytes.length !== cols * 8) {
      return fail(
        `opened row ${opened.index} holds ${Math.floor(bytes.length / 8)} numbers, expected ${cols}`,
      );
    }
    if (
      !verifyMerklePath(leafHash(bytes), opened.index, rows, opened.path, commitment.merkle_root)
    ) {
      return fail(
        `opened row ${opened.index} is not the row committed to (its Merkle path does not lead to the root)`,
      );
    }
    decoded.push(bytesToRow(bytes));
  }

  const reference = productRows(params, challenge.rows);
  const r = challengeVector(challengeSeed, cols);
  for (const [position, row] of decoded.entries()) {
    const index = challenge.rows[position] as number;
    const expected = reference.values[position] as Float64Array;
    const magnitude = reference.magnitudes[position] as Float64Array;
    for (let j = 0; j < cols; j++) {
      const difference = Math.abs((row[j] as number) - (expected[j] as number));
      if (!(difference <= agreementTolerance(inner, magnitude[j] as number))) {
        return fail(
          `row ${index} of C differs from A·B at column ${j}: the product was not computed`,
        );
      }
    }
    let projection = 0;
    let projectionMagnitude = 0;
    for (let j = 0; j < cols; j++) {
      projection += (row[j] as number) * (r[j] as number);
      projectionMagnitude += Math.abs((row[j] as number) * (r[j] as number));
    }
    const reported = result.projection[index] ?? Number.NaN;
    if (!(Math.abs(reported - projection) <= agreementTolerance(cols, projectionMagnitude))) {
      return fail(`projection entry ${index} is not row ${index} of the committed C times r`);
    }
    const returned = result.c?.[index];
    if (returned && returned.some((value, j) => value !== row[j])) {
      return fail(`row ${index} of c differs from the row committed to`);
    }
  }
  return { ok: true };
}
