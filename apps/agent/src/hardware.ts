import type { HardwareInfo } from '@fabric/contract';
import { availableParallelism, cpus, platform, release, arch, totalmem } from 'node:os';

function formatBytes(bytes: number): string {
  const gib = bytes / 1024 ** 3;
  return gib >= 1 ? `${gib.toFixed(1)} GB` : `${Math.round(bytes / 1024 ** 2)} MB`;
}

/** What the device is, as providers and the scheduler see it. */
export function readHardwareInfo(maxCores: number): HardwareInfo {
  const model = cpus()[0]?.model.trim() || 'Unknown CPU';
  const cores = Math.min(availableParallelism(), maxCores);
  const memoryBytes = totalmem();
  return {
    cpu: `${model} (${cores} ${cores === 1 ? 'core' : 'cores'})`,
    cores,
    memory: formatBytes(memoryBytes),
    memory_bytes: memoryBytes,
    os: `${platform()} ${release()}`,
    arch: arch(),
  };
}
