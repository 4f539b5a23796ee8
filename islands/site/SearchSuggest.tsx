// The search input with instant title suggestions (a listbox combobox), shared by the header box
// and the mobile drawer. Plain fetch, not api(): a keystroke must not flash the progress bar.
import { useEffect, useRef, useState, type KeyboardEvent } from "react";

/** `url` opens the document or article (the box's type decides which kind is suggested). */
interface Suggestion { title: string; url: string }

export interface SuggestInputProps { id: string; type: number; initial: string; placeholder: string }

export function SuggestInput({ id, type, initial, placeholder }: SuggestInputProps) {
  const [q, setQ] = useState(initial);
  const [items, setItems] = useState<Suggestion[]>([]);
  const [active, setActive] = useState(-1);
  const [open, setOpen] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const ctrl = useRef<AbortController>(undefined);
  useEffect(() => () => (clearTimeout(timer.current), ctrl.current?.abort()), []);

  // Debounced; a newer keystroke aborts the request of an older one so answers never arrive stale.
  const lookup = (text: string) => {
    clearTimeout(timer.current);
    ctrl.current?.abort();
    const wd = text.trim();
    if (!wd) return setItems([]);
    timer.current = setTimeout(() => {
      const c = (ctrl.current = new AbortController());
      fetch(`/api/v1/search/suggest?type=${type}&wd=${encodeURIComponent(wd)}`, { signal: c.signal })
        .then((r) => (r.ok ? r.json() : null))
        .then((d) => {
          if (c.signal.aborted) return;
          setItems(d?.suggest ?? []);
          setActive(-1);
          setOpen(true);
        })
        .catch(() => {});
    }, 150);
  };

  const shown = open && items.length > 0;
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.nativeEvent.isComposing) return;
    const n = items.length;
    if ((e.key === "ArrowDown" || e.key === "ArrowUp") && n) {
      e.preventDefault();
      setOpen(true);
      setActive((a) => (e.key === "ArrowDown" ? (a + 1) % n : a <= 0 ? n - 1 : a - 1));
    } else if (e.key === "Escape") {
      setOpen(false);
      setActive(-1);
    } else if (e.key === "Enter" && shown && items[active]) {
      // With no suggestion picked, Enter submits the form: the full search.
      e.preventDefault();
      location.href = items[active].url;
    }
  };

  return (
    <>
      <input
        name="wd" value={q} maxLength={64} placeholder={placeholder} aria-label={placeholder} autoComplete="off"
        role="combobox" aria-autocomplete="list" aria-expanded={shown} aria-controls={id} aria-activedescendant={shown && active >= 0 ? `${id}-${active}` : undefined}
        onChange={(e) => {
          setQ(e.target.value);
          // Pinyin being composed is not the query yet; compositionend looks it up.
          if (!(e.nativeEvent as InputEvent).isComposing) lookup(e.target.value);
        }}
        onCompositionEnd={(e) => lookup(e.currentTarget.value)}
        onKeyDown={onKey} onFocus={() => setOpen(true)} onBlur={() => setOpen(false)}
      />
      {shown ? (
        // mousedown would blur the input and close the list before the click lands.
        <ul id={id} role="listbox" className="suggest-list" aria-label="搜索建议" onMouseDown={(e) => e.preventDefault()}>
          {items.map((s, i) => (
            // An option holds no link (a focusable element inside an option confuses screen readers):
            // a click, like Enter, opens the document or article.
            <li key={s.url} id={`${id}-${i}`} role="option" aria-selected={i === active} className={i === active ? "active" : undefined}
              title={s.title} onMouseEnter={() => setActive(i)} onClick={() => (location.href = s.url)}>
              {s.title}
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}
