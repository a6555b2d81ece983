// A question card's form, as the person filled it in: the browser leaves unticked checkboxes out of a form's
// data, so this adds them. When the form is sent, each checkbox alone under its name says "true" or "false",
// and the names of those checkboxes and of checkbox groups (several sharing a name) go along, so that the
// server gives the app True/False for a checkbox and the list of the ticked values for a group.
import React, { useEffect, useRef } from "react";

export const FIELDS = "__cui_fields";

const describeCheckboxes = (form, data) => {
  const byName = new Map();
  for (const box of form.querySelectorAll('input[type="checkbox"][name]')) {
    if (!byName.has(box.name)) byName.set(box.name, []);
    byName.get(box.name).push(box);
  }
  const checkboxes = [];
  const groups = [];
  for (const [name, boxes] of byName) {
    if (boxes.length === 1) {
      data.set(name, boxes[0].checked ? "true" : "false");
      checkboxes.push(name);
    } else {
      groups.push(name); // the ticked ones' values are in the data already
    }
  }
  data.set(FIELDS, JSON.stringify({ checkboxes, groups }));
};

export function CuiFormFields() {
  const marker = useRef(null);
  useEffect(() => {
    const form = marker.current?.form;
    if (!form) return undefined;
    const listener = (event) => describeCheckboxes(form, event.formData);
    form.addEventListener("formdata", listener);
    return () => form.removeEventListener("formdata", listener);
  }, []);
  return <input ref={marker} type="hidden" name={FIELDS} value="" />;
}
