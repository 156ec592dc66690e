import { describe, expect, it } from 'vitest';
import { makeJob, makeNode } from '@/testing/records';
import {
  formatBytes,
  formatCpu,
  formatDateTime,
  formatTime,
  formatDuration,
  formatPercent,
  formatJobCost,
  formatJobType,
  formatMemory,
  formatUptime,
  formatUsd,
  shortId,
} from './format';

describe('format', () => {
  it('shortens an id to its first 8 characters', () => {
    expect(shortId('a1b2c3d4-0000-4000-8000-000000000001')).toBe('a1b2c3d4');
    expect(shortId('abc')).toBe('abc');
  });

  it('formats dollars with 2 decimals from numbers and decimal strings', () => {
    expect(formatUsd(2.4)).toBe('$2.40');
    expect(formatUsd('0.00')).toBe('$0.00');
    expect(formatUsd('1234.5')).toBe('$1,234.50');
    expect(formatUsd('not a number')).toBe('$0.00');
  });

  it('shows the actual cost, else the estimate, else a dash', () => {
    expect(formatJobCost(makeJob({ actual_cost: 1.234, estimated_cost: 2.4 }))).toBe('$1.23');
    expect(formatJobCost(makeJob({ actual_cost: null, estimated_cost: 2.4 }))).toBe('$2.40');
    expect(formatJobCost(makeJob({ actual_cost: 0, estimated_cost: 2.4 }))).toBe('$0.00');
    expect(formatJobCost(makeJob({ actual_cost: null, estimated_cost: null }))).toBe('—');
  });

  it('shows 99% uptime only when the node has sent a heartbeat', () => {
    expect(formatUptime(makeNode())).toBe('99%');
    expect(formatUptime(makeNode({ last_heartbeat: null }))).toBe('N/A');
  });

  it('shows CPU and memory from the hardware info, else N/A', () => {
    expect(formatCpu(makeNode())).toBe('Apple M2');
    expect(formatMemory(makeNode())).toBe('16 GB');
    expect(formatCpu(makeNode({ hardware_info: null }))).toBe('N/A');
    expect(formatMemory(makeNode({ hardware_info: { cpu: 'x' } }))).toBe('N/A');
  });

  it('turns a job type into a readable name', () => {
    expect(formatJobType('neural_network_training')).toBe('Neural Network Training');
    expect(formatJobType('fibonacci')).toBe('Fibonacci');
    expect(formatJobType('llm_inference')).toBe('LLM Inference');
  });

  it('formats durations from milliseconds', () => {
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(12_400)).toBe('12 s');
    expect(formatDuration(4_250)).toBe('4.3 s');
    expect(formatDuration(185_000)).toBe('3 min 05 s');
    expect(formatDuration(7_620_000)).toBe('2 h 07 min');
    expect(formatDuration(-1)).toBe('—');
  });

  it('formats bytes in binary units', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(16 * 1024 ** 3)).toBe('16 GB');
    expect(formatBytes(Number.NaN)).toBe('—');
  });

  it('formats shares as percentages and timestamps as local dates', () => {
    expect(formatPercent(0.974)).toBe('97%');
    expect(formatPercent(null)).toBe('N/A');
    expect(formatDateTime(null)).toBe('—');
    expect(formatDateTime('not a date')).toBe('—');
    expect(formatDateTime('2026-11-22T10:41:07.000Z')).toMatch(/Nov 22, 2026/);
    expect(formatTime('2026-11-22T10:41:07.000Z')).toMatch(/^\d{1,2}:\d{2} (AM|PM)$/);
    expect(formatTime(null)).toBe('—');
    expect(formatTime('not a date')).toBe('—');
  });
});
