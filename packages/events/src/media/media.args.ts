import { invalid, type Validator } from '../http/args.ts';
import { imageId, isHttpUrl, isNoImage } from './media.service.ts';

/**
 * The `image` write rule (compat §4.4 "Image rules"): empty, the id of an image attachment, or an http(s) URL from
 * a caller with `upload_files`. Whether the URL answers with an image is checked when it is fetched, after the
 * permission check (README, media).
 */
export function imageValidator(isImage: (id: number) => Promise<boolean>): Validator {
  return async (v, _name, caller) => {
    if (isNoImage(v)) return true;
    const id = imageId(v);
    if (id !== undefined) return (await isImage(id)) ? true : invalid();
    if (isHttpUrl(v)) return caller?.can('upload_files') ? true : invalid();
    return invalid();
  };
}
