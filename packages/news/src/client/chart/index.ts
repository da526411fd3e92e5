/** Chart of occurrences per crawl month: data from find's per-shard counts (pure) and its SVG drawing (DOM). */
export { chartData, axisTicks, type ChartBar, type ChartData } from './chart-data.ts';
