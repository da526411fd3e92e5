import type { AttachmentsTable } from '../db/index.ts';
import type { SizeFile } from './upload-store.ts';
import { UPLOADS_PATH } from './uploads.routes.ts';

/** The public URL of a file under the uploads folder. */
export const uploadUrl = (home: string, file: string): string => `${home}${UPLOADS_PATH}/${file}`;

/**
 * The image object of §1.2, as the plugin builds it from the attachment metadata: `{url, id, extension, width,
 * height, filesize, sizes: {name: {width, height, mime-type, filesize, url}}}`, empty entries dropped (no sizes →
 * no `sizes` key).
 */
export function formatImage(home: string, a: AttachmentsTable): Record<string, unknown> {
  const folder = a.file.slice(0, a.file.lastIndexOf('/'));
  const sizes: Record<string, unknown> = {};
  for (const [name, s] of Object.entries(JSON.parse(a.sizes) as Record<string, SizeFile>)) {
    sizes[name] = {
      width: s.width,
      height: s.height,
      'mime-type': s.mime_type,
      filesize: s.filesize,
      url: uploadUrl(home, `${folder}/${s.file}`),
    };
  }
  const out: Record<string, unknown> = {
    url: uploadUrl(home, a.file),
    id: a.post_id,
    extension: a.file.slice(a.file.lastIndexOf('.') + 1),
    width: a.width,
    height: a.height,
    filesize: a.filesize,
  };
  if (Object.keys(sizes).length > 0) out.sizes = sizes;
  return out;
}
