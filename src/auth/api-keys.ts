import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { workspaceName } from '../domain/inputs.js';

export type Role = 'read' | 'write' | 'admin';

/** One configured key. Only its SHA-256 is kept in memory; the key itself is never stored or logged. */
export interface ApiKey {
  /** SHA-256 of the key (32 bytes). */
  hash: Buffer;
  workspace: string;
  role: Role;
  /** First 8 hex digits of the hash: names the key in logs without revealing it. */
  id: string;
}

/** Plain keys shorter than this are refused: they can be guessed. */
const MIN_KEY_LENGTH = 16;

const ROLE = z.enum(['read', 'write', 'admin']);
const SHA256_HEX = /^[0-9a-f]{64}$/i;

const sha256 = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

function entry(hash: Buffer, workspace: string, role: Role): ApiKey {
  return { hash, workspace, role, id: hash.toString('hex').slice(0, 8) };
}

/** Thrown with a message that names the variable and the entry, never the key. */
export class ApiKeyConfigError extends Error {
  override name = 'ApiKeyConfigError';
}

function plainKey(key: string, where: string): Buffer {
  if (key.length < MIN_KEY_LENGTH)
    throw new ApiKeyConfigError(`${where}: a key must be at least ${MIN_KEY_LENGTH} characters`);
  if (/[\s,=]/.test(key)) throw new ApiKeyConfigError(`${where}: a key must not contain spaces, commas or "="`);
  return sha256(key);
}

/**
 * `ENGRAM_API_KEYS`: comma-separated `KEY=WORKSPACE:ROLE` entries (`k1=team-a:write,k2=team-b:read`).
 * A key written `sha256:<64 hex>` is the SHA-256 of the real key, so the variable holds no secret.
 */
export function parseApiKeyList(text: string, variable = 'ENGRAM_API_KEYS'): ApiKey[] {
  const keys: ApiKey[] = [];
  const entries = text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  entries.forEach((part, index) => {
    const where = `${variable} entry ${index + 1}`;
    const equals = part.lastIndexOf('=');
    if (equals <= 0) throw new ApiKeyConfigError(`${where}: expected KEY=WORKSPACE:ROLE`);
    const key = part.slice(0, equals);
    const [workspace, role, ...rest] = part.slice(equals + 1).split(':');
    if (rest.length > 0 || workspace === undefined || role === undefined)
      throw new ApiKeyConfigError(`${where}: expected KEY=WORKSPACE:ROLE`);
    const hash = key.startsWith('sha256:') ? hashFromHex(key.slice('sha256:'.length), where) : plainKey(key, where);
    keys.push(entry(hash, checkWorkspace(workspace, where), checkRole(role, where)));
  });
  return keys;
}

const FileEntry = z.union([
  z.object({ key: z.string(), workspace: z.string(), role: z.string() }).strict(),
  z.object({ sha256: z.string(), workspace: z.string(), role: z.string() }).strict(),
]);

/** `ENGRAM_API_KEYS_FILE`: a JSON array of `{"key","workspace","role"}` or `{"sha256","workspace","role"}`. */
export function parseApiKeyFile(path: string, variable = 'ENGRAM_API_KEYS_FILE'): ApiKey[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    // The message of a JSON parse error can quote the file, and so a key: keep only its kind.
    const why = (error as NodeJS.ErrnoException).code ?? 'not valid JSON';
    throw new ApiKeyConfigError(`${variable}: cannot read ${path} (${why})`);
  }
  if (!Array.isArray(raw))
    throw new ApiKeyConfigError(`${variable}: ${path} must hold a JSON array of {"key","workspace","role"}`);
  return raw.map((item, index) => {
    const where = `${variable} entry ${index + 1}`;
    const parsed = FileEntry.safeParse(item);
    if (!parsed.success) throw new ApiKeyConfigError(`${where}: expected {"key" or "sha256", "workspace", "role"}`);
    const value = parsed.data;
    const hash = 'sha256' in value ? hashFromHex(value.sha256, where) : plainKey(value.key, where);
    return entry(hash, checkWorkspace(value.workspace, where), checkRole(value.role, where));
  });
}

function hashFromHex(hex: string, where: string): Buffer {
  if (!SHA256_HEX.test(hex)) throw new ApiKeyConfigError(`${where}: a sha256 key must be 64 hex digits`);
  return Buffer.from(hex, 'hex');
}

function checkWorkspace(workspace: string, where: string): string {
  const parsed = workspaceName.safeParse(workspace);
  if (!parsed.success)
    throw new ApiKeyConfigError(`${where}: workspace ${parsed.error.issues[0]?.message ?? 'is invalid'}`);
  return parsed.data;
}

function checkRole(role: string, where: string): Role {
  const parsed = ROLE.safeParse(role);
  if (!parsed.success) throw new ApiKeyConfigError(`${where}: role must be read, write or admin`);
  return parsed.data;
}

/** Refuses two entries for one key: which workspace it meant would depend on the order. */
export function checkDistinct(keys: readonly ApiKey[]): void {
  const seen = new Set<string>();
  for (const key of keys) {
    const hex = key.hash.toString('hex');
    if (seen.has(hex)) throw new ApiKeyConfigError(`API keys: key ${key.id}… is configured twice`);
    seen.add(hex);
  }
}

/**
 * Finds the key a presented secret matches. The secret is hashed first, so every comparison is
 * between two 32-byte digests, and every configured key is compared (no early exit): the time
 * taken says nothing about how much of a key was right, or which key matched.
 */
export function findApiKey(keys: readonly ApiKey[], presented: string): ApiKey | null {
  const digest = sha256(presented);
  let match: ApiKey | null = null;
  for (const key of keys) {
    if (timingSafeEqual(key.hash, digest) && match === null) match = key;
  }
  return match;
}
