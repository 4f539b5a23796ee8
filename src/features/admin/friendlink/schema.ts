import { z } from "zod";
import { descriptionField, enableField, httpUrl, sortField, titleField, updateOf } from "../crud/schema.ts";

export const friendlinkCreate = z.object({
  title: titleField(64),
  link: httpUrl("链接地址"),
  description: descriptionField().optional(),
  sort: sortField.optional(),
  enable: enableField.optional(),
});

export const friendlinkUpdate = updateOf(friendlinkCreate);
