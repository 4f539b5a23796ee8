// Field descriptions shared by the admin form kit and its inputs (types only, so AdminKit and
// AdminFields do not import each other).
export interface Opt { value: string | number; label: string }
export interface OptGroup { label: string; options: Opt[] }
export interface FieldDef {
  name: string;
  label: string;
  kind: "text" | "textarea" | "number" | "switch" | "select" | "multiselect" | "lookup" | "image" | "datetime" | "color" | "password";
  /** "create": required only when creating (e.g. a password that editing may leave empty) */
  required?: boolean | "create";
  /** shown but not editable once the row exists */
  createOnly?: boolean;
  placeholder?: string;
  help?: string;
  options?: Opt[];
  groups?: OptGroup[];
  /** image fields: POST /upload/<upload> stores the file and answers its URL */
  upload?: string;
  maxLength?: number;
  disabled?: boolean;
  /** lookup fields: GET <path>?<query>=… answers rows under <key>; <label> names a row */
  lookup?: { path: string; key: string; query: string; label: string };
}
