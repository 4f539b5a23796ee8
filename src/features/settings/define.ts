// Types and the small constructor every settings group uses; features that own a group
// (sms, email, oauth, …) define it beside their code and definitions.ts lists it.

export type InputType = "text" | "textarea" | "number" | "switch" | "select" | "image" | "password";

export interface SettingDef {
  name: string;
  label: string;
  type: InputType;
  default: string | number | boolean;
  placeholder?: string;
  options?: { value: string; label: string }[];
  secret?: boolean;
  /** Visible to everyone through GET /settings (only if the group is public too). Default true. */
  public?: boolean;
  min?: number;
  max?: number;
  maxLength?: number;
}

export interface GroupDef {
  name: string;
  label: string;
  public: boolean;
  settings: SettingDef[];
}

export const s = (name: string, label: string, type: InputType, def: SettingDef["default"], extra: Partial<SettingDef> = {}): SettingDef => ({
  name, label, type, default: def, ...extra,
});

