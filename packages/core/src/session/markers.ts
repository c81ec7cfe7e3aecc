import { existsSync, linkSync, renameSync, unlinkSync } from "node:fs";
import { CarryoverError } from "../errors.ts";
import { dirNames, readFileNoFollow, writeFileAtomic } from "../fs/atomic.ts";
import { joinPath } from "../fs/join-path.ts";
import type { Session, SessionPaths } from "./session.ts";

/** A file that tells one hook something another hook saw, scoped to one session. */
export interface Marker<T = Record<string, unknown>> {
  name: string;
  createdAtMs: number;
  data: T;
}

export interface MarkerReadOptions {
  nowMs: number;
  /** Older markers are deleted instead of returned. */
  maxAgeMs?: number;
}

const MARKER_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;

function checkName(name: string): string {
  if (!MARKER_NAME.test(name)) throw new CarryoverError("BAD_INPUT", `bad marker name ${JSON.stringify(name)}`);
  return name;
}

/** The path only: creates nothing, so a fast path can test for a marker with one stat. */
export function markerPath(session: SessionPaths, name: string): string {
  return joinPath(session.dir, "markers", `${checkName(name)}.json`);
}

export function hasMarker(session: SessionPaths, name: string): boolean {
  return existsSync(markerPath(session, name));
}

function serialize<T>(name: string, data: T, nowMs: number): string {
  return JSON.stringify({ name, createdAtMs: nowMs, data } satisfies Marker<T>);
}

/** Creates or replaces a marker atomically. */
export function writeMarker<T>(session: Session, name: string, data: T, nowMs: number): void {
  const dir = session.ensureMarkersDir();
  writeFileAtomic(joinPath(dir, `${checkName(name)}.json`), serialize(name, data, nowMs));
}

/** Creates a marker only if none exists; false when one already did (of two racers, one wins). */
export function createMarkerOnce<T>(session: Session, name: string, data: T, nowMs: number): boolean {
  const dir = session.ensureMarkersDir();
  const path = joinPath(dir, `${checkName(name)}.json`);
  const draft = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.draft`;
  writeFileAtomic(draft, serialize(name, data, nowMs));
  try {
    linkSync(draft, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    unlinkSync(draft);
  }
}

function parseMarker<T>(text: string | null): Marker<T> | null {
  if (text === null) return null;
  try {
    const value = JSON.parse(text) as Marker<T>;
    return typeof value?.createdAtMs === "number" ? value : null;
  } catch {
    return null;
  }
}

function isStale(marker: Marker<unknown>, options: MarkerReadOptions): boolean {
  return options.maxAgeMs !== undefined && options.nowMs - marker.createdAtMs > options.maxAgeMs;
}

/** Reads without consuming; a stale or unreadable marker is removed and reads as null. */
export function readMarker<T>(session: Session, name: string, options: MarkerReadOptions): Marker<T> | null {
  const path = markerPath(session, name);
  if (!existsSync(path)) return null;
  session.ensureMarkersDir();
  const marker = parseMarker<T>(readFileNoFollow(path));
  if (marker && !isStale(marker, options)) return marker;
  removeFile(path);
  return null;
}

/**
 * Takes the marker away and returns it: rename is atomic, so of any number of concurrent
 * consumers exactly one gets it. Stale or unreadable markers are dropped and read as null.
 */
export function consumeMarker<T>(session: Session, name: string, options: MarkerReadOptions): Marker<T> | null {
  const path = markerPath(session, name);
  if (!existsSync(path)) return null;
  session.ensureMarkersDir();
  const claimed = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.claimed`;
  try {
    renameSync(path, claimed);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  try {
    const marker = parseMarker<T>(readFileNoFollow(claimed));
    return marker && !isStale(marker, options) ? marker : null;
  } finally {
    removeFile(claimed);
  }
}

export function removeMarker(session: Session, name: string): boolean {
  return removeFile(markerPath(session, name));
}

/** Names of the session's markers that start with `prefix` (all when empty). */
export function listMarkers(session: SessionPaths, prefix = ""): string[] {
  const dir = joinPath(session.dir, "markers");
  // Asked first: a fast path lists a dir that is often missing, and a failed readdir costs an exception.
  if (!existsSync(dir)) return [];
  return dirNames(dir)
    .filter((entry) => entry.endsWith(".json") && entry.startsWith(prefix))
    .map((entry) => entry.slice(0, -".json".length))
    .filter((name) => MARKER_NAME.test(name))
    .sort();
}

function removeFile(path: string): boolean {
  try {
    unlinkSync(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}
