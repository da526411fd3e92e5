import { buildShardInMemory } from '../index.ts';
import { describeShardReaderContract } from '../shard-reader.contract.ts';
import { describeShardReaderProperties } from '../shard-reader.properties.ts';

// The SA kind through its files runs in ../kinds.test.ts with every kind; here its reader built without files.
describeShardReaderContract('memory reader (buildShardInMemory)', buildShardInMemory);
describeShardReaderProperties('memory reader (buildShardInMemory)', buildShardInMemory, 150);
