import { loopbackHosts } from './cluster-hosts.ts';
import { defineClusterSuite } from './cluster-suite.ts';

// Workers addressed by GATEWAY_WORKER_URL (they tell the gateway their shards), all on 127.0.0.1.
defineClusterSuite('cluster on loopback (GATEWAY_WORKER_URL list)', loopbackHosts, 'urls');
