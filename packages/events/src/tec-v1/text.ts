// TEC's text sanitiser for `title`, `content` and `excerpt` (NOTES §3.2): tags stripped, whitespace runs collapsed.

export const plainField = (v: unknown): unknown =>
  typeof v === 'string'
    ? v
        .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, '')
        .replace(/<[^>]*>/g, '')
        .replace(/[\r\n\t ]+/g, ' ')
        .trim()
    : v;
