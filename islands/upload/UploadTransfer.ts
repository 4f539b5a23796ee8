// Browser side of a document upload: MD5 in 2 MB chunks (spec §5/§9, as MOREDOC hashes) and an
// XMLHttpRequest upload that reports real progress (fetch cannot report upload progress).

export const CHUNK_BYTES = 2 * 1024 * 1024;
export const READ_FAILED = "文件读取失败";

/**
 * MD5 of a file read chunk by chunk; rejects with 文件读取失败 when the browser cannot read it.
 * spark-md5 loads on the first file chosen, keeping it out of the page's initial JS.
 */
export async function hashFile(file: Blob, onProgress: (pct: number) => void): Promise<string> {
  const { default: SparkMD5 } = await import("spark-md5");
  return new Promise((resolve, reject) => {
    const spark = new SparkMD5.ArrayBuffer();
    const reader = new FileReader();
    const chunks = Math.max(1, Math.ceil(file.size / CHUNK_BYTES));
    let i = 0;
    const next = () => reader.readAsArrayBuffer(file.slice(i * CHUNK_BYTES, Math.min(file.size, (i + 1) * CHUNK_BYTES)));
    reader.onload = () => {
      spark.append(reader.result as ArrayBuffer);
      i++;
      onProgress((i / chunks) * 100);
      if (i < chunks) next();
      else resolve(spark.end());
    };
    reader.onerror = () => reject(new Error(READ_FAILED));
    next();
  });
}

export interface UploadResult { ok: boolean; status: number; message: string; data?: { id: number; hash: string; name: string; size: number; ext: string } }

/**
 * POST /api/v1/upload/document as multipart `file`. No overall time-out: the 30 s API limit is
 * for calls, and a large file over a slow line takes longer while bytes keep flowing.
 */
export function uploadDocument(file: File, onProgress: (pct: number) => void): Promise<UploadResult> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/v1/upload/document");
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress((e.loaded / e.total) * 100);
    xhr.onload = () => {
      let data: any;
      try {
        data = JSON.parse(xhr.responseText);
      } catch {}
      const ok = xhr.status === 200;
      const message = data?.message || (ok ? "" : [xhr.status, xhr.statusText, xhr.responseText].filter(Boolean).join(" "));
      resolve({ ok, status: xhr.status, message, data: ok ? data : undefined });
    };
    xhr.onerror = () => resolve({ ok: false, status: 0, message: "网络错误，请检查网络连接" });
    const form = new FormData();
    form.append("file", file);
    xhr.send(form);
  });
}
