import { uuidv7 } from 'uuidv7';

/** Time-ordered ids (UUIDv7): sortable by creation, unique across processes sharing one store. */
export const newId = (): string => uuidv7();

export const nowIso = (): string => new Date().toISOString();
