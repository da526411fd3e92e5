/** `news publish-hub`: writes a release in the dataset-hub layout (reads the release; not for the gateway). */
export {
  publishHub,
  defaultPublishHubOptions,
  PublishHubError,
  type PublishHubOptions,
  type PublishHubSummary,
} from './publish-hub.ts';
