import { describe, it } from 'vitest';
import { namespaceHosts, namespacesRefused } from './cluster-hosts.ts';
import { defineClusterSuite } from './cluster-suite.ts';

const refused = namespacesRefused();
if (refused === null) {
  // Four hosts (network namespaces with veth pairs), addressed by a GATEWAY_TOPOLOGY file.
  defineClusterSuite('cluster across network namespaces (GATEWAY_TOPOLOGY)', () => namespaceHosts(4), 'topology');
} else {
  describe('cluster across network namespaces', () => {
    it.skip(refused, () => {});
  });
}
