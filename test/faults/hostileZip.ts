/**
 * Builds zips that no honest writer makes: local members written once, then a central directory whose
 * records may point at any member under any name and declare any sizes. What the fault tests feed the
 * npz reader to check that a directory is not trusted.
 */
import { deflateRawSync } from 'node:zlib';
import { npyHeader } from '../../src/main/data';
import { crc32 } from '../../src/main/data/testing';

export interface HostileMember {
  name: string;
  /** the bytes as stored in the zip (deflated when `deflated`) */
  stored: Uint8Array;
  deflated: boolean;
  /** what the headers declare */
  crc: number;
  size: number;
}

/** A directory record: which member it points at, and what it says about it (the member's own values by default). */
export interface HostileRecord {
  member: number;
  name?: string;
  size?: number;
}

/** A deflated member declaring `size` bytes with the CRC of `declared` (by default the whole of `content`). */
export function deflatedMember(name: string, content: Uint8Array, declared: Uint8Array = content): HostileMember {
  return { name, stored: deflateRawSync(content, { level: 9 }), deflated: true, crc: crc32(declared), size: declared.length };
}

/** An .npy of `descr` and `shape` whose data bytes are all zero, followed by `extra` zero bytes. */
export function zeroNpy(descr: string, shape: number[], extra = 0): { bytes: Uint8Array; arrayBytes: number } {
  const header = npyHeader(descr, shape);
  const item = descr[1] === 'U' ? 4 * Number(descr.slice(2)) : Number(descr.slice(2));
  const arrayBytes = header.length + shape.reduce((a, b) => a * b, 1) * item;
  const bytes = new Uint8Array(arrayBytes + extra);
  bytes.set(header);
  return { bytes, arrayBytes };
}

function u16(v: DataView, at: number, x: number): void {
  v.setUint16(at, x, true);
}
function u32(v: DataView, at: number, x: number): void {
  v.setUint32(at, x, true);
}

function localHeader(m: HostileMember): Uint8Array {
  const name = new TextEncoder().encode(m.name);
  const out = new Uint8Array(30 + name.length);
  const v = new DataView(out.buffer);
  u32(v, 0, 0x04034b50);
  u16(v, 4, 20);
  u16(v, 8, m.deflated ? 8 : 0);
  u32(v, 14, m.crc);
  u32(v, 18, m.stored.length);
  u32(v, 22, m.size);
  u16(v, 26, name.length);
  out.set(name, 30);
  return out;
}

function centralRecord(m: HostileMember, r: HostileRecord, offset: number): Uint8Array {
  const name = new TextEncoder().encode(r.name ?? m.name);
  const out = new Uint8Array(46 + name.length);
  const v = new DataView(out.buffer);
  u32(v, 0, 0x02014b50);
  u16(v, 4, 20);
  u16(v, 6, 20);
  u16(v, 10, m.deflated ? 8 : 0);
  u32(v, 16, m.crc);
  u32(v, 20, m.stored.length);
  u32(v, 24, r.size ?? m.size);
  u16(v, 28, name.length);
  u32(v, 42, offset);
  out.set(name, 46);
  return out;
}

/** The zip: each member once, then one directory record per entry of `records` (one per member by default). */
export function hostileZip(members: HostileMember[], records: HostileRecord[] = members.map((_, member) => ({ member }))): Uint8Array {
  const parts: Uint8Array[] = [];
  const offsets: number[] = [];
  let at = 0;
  for (const m of members) {
    offsets.push(at);
    const local = localHeader(m);
    parts.push(local, m.stored);
    at += local.length + m.stored.length;
  }
  const directoryOffset = at;
  for (const r of records) {
    const record = centralRecord(members[r.member]!, r, offsets[r.member]!);
    parts.push(record);
    at += record.length;
  }
  const end = new Uint8Array(22);
  const v = new DataView(end.buffer);
  u32(v, 0, 0x06054b50);
  u16(v, 8, records.length);
  u16(v, 10, records.length);
  u32(v, 12, at - directoryOffset);
  u32(v, 16, directoryOffset);
  parts.push(end);
  return Buffer.concat(parts);
}
