#!/usr/bin/env node
// The Fabric node agent. Enrollment, leasing and the kernels arrive with the compute-network issue;
// until then the CLI says so plainly rather than pretending to work.
import { PRODUCT_NAME } from '@fabric/contract';

const HELP = `${PRODUCT_NAME} node agent

Usage: npm run agent -- --server <url> --email <email>

This build of the agent cannot enroll devices yet: the compute network is not released.
`;

process.stdout.write(HELP);
process.exitCode = process.argv.includes('--help') ? 0 : 1;
