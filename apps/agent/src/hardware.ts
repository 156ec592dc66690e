import { HARDWARE_TEXT_MAX_LENGTH, type HardwareInfo } from '@fabric/contract';
import { availableParallelism, cpus, platform, release, arch, totalmem } from 'node:os';

function formatBytes(bytes: number): string {
  const gib = bytes / 1024 ** 3;
  return gib >= 1 ? `${gib.toFixed(1)} GB` : `${Math.round(bytes / 1024 ** 2)} MB`;
}

/**
 * The server takes at most HARDWARE_TEXT_MAX_LENGTH characters per text (an odd OS string must
 * not stop heartbeats); cut between code points so no surrogate pair is split.
 */
export function clipHardwareText(text: string): string {
  if (text.length <= HARDWARE_TEXT_MAX_LENGTH) return text;
  let clipped = '';
  for (const character of text) {
    if (clipped.length + character.length > HARDWARE_TEXT_MAX_LENGTH - 1) break;
    clipped += character;
  }
  return `${clipped}…`;
}

/** What the device is, as providers and the scheduler see it. */
export function readHardwareInfo(maxCores: number): HardwareInfo {
  const model = cpus()[0]?.model.trim() || 'Unknown CPU';
  const cores = Math.min(availableParallelism(), maxCores);
  const memoryBytes = totalmem();
  return {
    cpu: clipHardwareText(`${model} (${cores} ${cores === 1 ? 'core' : 'cores'})`),
    cores,
    memory: formatBytes(memoryBytes),
    memory_bytes: memoryBytes,
    os: clipHardwareText(`${platform()} ${release()}`),
    arch: clipHardwareText(arch()),
  };
}
