import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ShardFormatError } from '../errors.ts';
import { FILES as SHARED_FILES, MAX_SHARD_TEXT_BYTES, POINTER_BYTES, SEPARATOR, SHARD_MAGIC } from '../format.ts';
import type { ShardFileInfo } from '../types.ts';

/** Bump on any change to the files below; readers refuse other versions. See DESIGN.md. */
export const SHARD_FORMAT_VERSION = 1;

/** The writer's files plus the suffix array. */
export const FILES = { ...SHARED_FILES, suffixArray: 'sa.u32' } as const;

/** header.json, written last by indexShard (its presence means the shard is complete). */
export interface ShardHeader {
  readonly magic: typeof SHARD_MAGIC;
  readonly formatVersion: number;
  readonly textBytes: number;
  readonly docCount: number;
  readonly pointerBytes: number;
  readonly separator: number;
  readonly files: {
    readonly text: ShardFileInfo;
    readonly docOffsets: ShardFileInfo;
    readonly suffixArray: ShardFileInfo;
  };
}

function isCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}

function checkFileInfo(file: string, v: unknown, name: string): ShardFileInfo {
  const o = v as Partial<ShardFileInfo> | null;
  if (!o || o.name !== name || !isCount(o.bytes) || typeof o.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(o.sha256)) {
    throw new ShardFormatError(file, `entry for ${name} is missing or malformed`);
  }
  return { name: o.name, bytes: o.bytes, sha256: o.sha256 };
}

/** Reads and validates header.json: magic, version, pointer width and the sizes it promises. */
export function readShardHeader(dir: string): ShardHeader {
  const file = path.join(dir, FILES.header);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    const what =
      (err as NodeJS.ErrnoException).code === 'ENOENT'
        ? 'missing (was indexShard run on this directory?)'
        : `unreadable: ${String(err)}`;
    throw new ShardFormatError(file, what);
  }
  const h = raw as Partial<Record<keyof ShardHeader, unknown>> | null;
  if (!h || h.magic !== SHARD_MAGIC)
    throw new ShardFormatError(file, `not a shard header (magic is not "${SHARD_MAGIC}")`);
  if (h.formatVersion !== SHARD_FORMAT_VERSION) {
    throw new ShardFormatError(
      file,
      `format version ${String(h.formatVersion)}, this reader supports ${SHARD_FORMAT_VERSION}; rebuild the shard`,
    );
  }
  if (!isCount(h.textBytes) || !isCount(h.docCount))
    throw new ShardFormatError(file, 'textBytes/docCount missing or not integers');
  if (h.pointerBytes !== POINTER_BYTES)
    throw new ShardFormatError(file, `pointerBytes ${String(h.pointerBytes)}, format v1 uses ${POINTER_BYTES}`);
  if (h.separator !== SEPARATOR)
    throw new ShardFormatError(file, `separator ${String(h.separator)}, expected ${SEPARATOR}`);
  if (h.textBytes > MAX_SHARD_TEXT_BYTES)
    throw new ShardFormatError(file, `textBytes ${h.textBytes} over the format limit`);
  if ((h.docCount === 0) !== (h.textBytes === 0) || h.docCount > h.textBytes) {
    throw new ShardFormatError(file, `textBytes ${h.textBytes} and docCount ${h.docCount} are inconsistent`);
  }
  const files = (h.files ?? {}) as Partial<Record<keyof ShardHeader['files'], unknown>>;
  const header: ShardHeader = {
    magic: SHARD_MAGIC,
    formatVersion: h.formatVersion,
    textBytes: h.textBytes,
    docCount: h.docCount,
    pointerBytes: h.pointerBytes,
    separator: h.separator,
    files: {
      text: checkFileInfo(file, files.text, FILES.text),
      docOffsets: checkFileInfo(file, files.docOffsets, FILES.docOffsets),
      suffixArray: checkFileInfo(file, files.suffixArray, FILES.suffixArray),
    },
  };
  const expect: [ShardFileInfo, number][] = [
    [header.files.text, header.textBytes],
    [header.files.docOffsets, header.docCount * 8],
    [header.files.suffixArray, header.textBytes * header.pointerBytes],
  ];
  for (const [info, bytes] of expect) {
    if (info.bytes !== bytes)
      throw new ShardFormatError(file, `${info.name} recorded as ${info.bytes} bytes, expected ${bytes}`);
  }
  return header;
}
