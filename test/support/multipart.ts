// Hand-built multipart/form-data bodies, the way zulip-js and browsers post forms.
export interface MultipartPart {
  name: string;
  value: string | Buffer;
  /** Makes the part a file upload. */
  filename?: string;
  contentType?: string;
}

export interface MultipartBody {
  payload: Buffer;
  contentType: string;
}

export function multipartBody(parts: MultipartPart[] | Record<string, string>, boundary = 'confab-boundary-7MA4YWxk'): MultipartBody {
  const list: MultipartPart[] = Array.isArray(parts) ? parts : Object.entries(parts).map(([name, value]) => ({ name, value }));
  const chunks: Buffer[] = [];
  for (const part of list) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
    if (part.filename !== undefined) head += `; filename="${part.filename}"`;
    head += '\r\n';
    if (part.contentType) head += `Content-Type: ${part.contentType}\r\n`;
    chunks.push(Buffer.from(`${head}\r\n`), Buffer.from(part.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
