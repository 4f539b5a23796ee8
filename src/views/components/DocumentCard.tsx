import { creditName } from "#src/features/settings/service.ts";
import { formatDate } from "#src/lib/format.ts";

/** The document fields a card shows; select exactly these (see DOCUMENT_CARD_COLUMNS in features/categories/listing.ts). */
export interface DocumentCardData {
  uuid: string;
  title: string;
  ext: string;
  pages: number;
  view_count: number;
  download_count: number;
  /** average rating × 100 (425 = 4.25) */
  score: number;
  /** credits; 0 is free */
  price: number;
  /** cover image URL; empty shows a file-type placeholder */
  cover: string;
  description?: string;
  created_at?: number;
}

export type ExtKind = "pdf" | "word" | "ppt" | "excel" | "txt" | "other";

const KINDS: Record<string, ExtKind> = {
  pdf: "pdf", doc: "word", docx: "word", wps: "word", rtf: "word", odt: "word",
  ppt: "ppt", pptx: "ppt", odp: "ppt", xls: "excel", xlsx: "excel", ods: "excel", csv: "excel", txt: "txt", md: "txt",
};

/** Which family a file extension belongs to (colours of the badge). */
export const extKind = (ext: string): ExtKind => KINDS[ext.toLowerCase().replace(/^\./, "")] ?? "other";

/** Counts above 10,000 as 1.2万, as Chinese sites show them. */
export function compactCount(n: number): string {
  if (n < 10_000) return String(n);
  const w = n / 10_000;
  return `${w >= 100 ? Math.round(w) : w.toFixed(1).replace(/\.0$/, "")}万`;
}

export function ExtBadge({ ext }: { ext: string }) {
  const e = ext.toLowerCase().replace(/^\./, "") || "file";
  return <span className={`ext-badge ext-${extKind(e)}`}>{e.toUpperCase()}</span>;
}

function Cover({ doc, eager }: { doc: DocumentCardData; eager?: boolean }) {
  if (doc.cover) return <img className="doc-cover-img" src={doc.cover} alt="" loading={eager ? "eager" : "lazy"} decoding="async" />;
  return (
    <span className={`doc-cover-ph ext-${extKind(doc.ext)}`} aria-hidden="true">
      <span>{(doc.ext || "file").toUpperCase()}</span>
    </span>
  );
}

function Meta({ doc, credits }: { doc: DocumentCardData; credits: string }) {
  return (
    <span className="doc-meta">
      {doc.pages > 0 ? <span title="页数">{doc.pages}页</span> : null}
      <span title="浏览">{compactCount(doc.view_count)}浏览</span>
      <span title="下载">{compactCount(doc.download_count)}下载</span>
      {doc.score > 0 ? <span className="doc-score" title="评分">★{(doc.score / 100).toFixed(1)}</span> : null}
      <span className={doc.price > 0 ? "doc-price" : "doc-price free"}>{doc.price > 0 ? `${doc.price}${credits}` : "免费"}</span>
    </span>
  );
}

/**
 * A document as a cover card (grids: home, related documents) or a list row (category and search
 * lists: cover thumbnail, title, description, meta). Server component; links to /document/{uuid}.
 */
export function DocumentCard({ doc, variant = "card", eager, credits }: { doc: DocumentCardData; variant?: "card" | "row"; eager?: boolean; credits?: string }) {
  const href = `/document/${doc.uuid}`;
  const unit = credits ?? creditName();
  if (variant === "row") {
    return (
      <article className="doc-row">
        <a className="doc-thumb" href={href} tabIndex={-1} aria-hidden="true"><Cover doc={doc} eager={eager} /></a>
        <div className="doc-row-body">
          <h3 className="doc-title"><ExtBadge ext={doc.ext} /><a href={href} title={doc.title}>{doc.title}</a></h3>
          {doc.description ? <p className="doc-desc">{doc.description}</p> : null}
          <p className="doc-row-foot">
            <Meta doc={doc} credits={unit} />
            {doc.created_at ? <time className="doc-date" dateTime={new Date(doc.created_at).toISOString()}>{formatDate(doc.created_at)}</time> : null}
          </p>
        </div>
      </article>
    );
  }
  return (
    <article className="doc-card">
      <a className="doc-card-cover" href={href} tabIndex={-1} aria-hidden="true"><Cover doc={doc} eager={eager} /></a>
      <h3 className="doc-title"><ExtBadge ext={doc.ext} /><a href={href} title={doc.title}>{doc.title}</a></h3>
      <Meta doc={doc} credits={unit} />
    </article>
  );
}

/** Compact numbered lines (side boxes: recommended, hot): badge, title and one count. */
export function DocumentLines({ docs, count = "view" }: { docs: DocumentCardData[]; count?: "view" | "download" }) {
  return (
    <ol className="doc-lines">
      {docs.map((d) => (
        <li key={d.uuid}>
          <ExtBadge ext={d.ext} />
          <a href={`/document/${d.uuid}`} title={d.title}>{d.title}</a>
          <span className="doc-lines-n">{compactCount(count === "view" ? d.view_count : d.download_count)}{count === "view" ? "浏览" : "下载"}</span>
        </li>
      ))}
    </ol>
  );
}

/** Cards in a responsive grid (4 / 3 / 2 columns), or rows in a list. */
export function DocumentList({ docs, variant = "card", credits }: { docs: DocumentCardData[]; variant?: "card" | "row"; credits?: string }) {
  const unit = credits ?? creditName();
  return (
    <div className={variant === "row" ? "doc-list" : "doc-grid"}>
      {docs.map((d, i) => <DocumentCard key={d.uuid} doc={d} variant={variant} credits={unit} eager={i < 4} />)}
    </div>
  );
}
