/**
 * Which form fields hold text that means no value. Such a field leaves the body as it was, so the body would
 * go out with a value the user no longer sees ("abc" over 1024, "1e309" over the 1e+30 typed on the way):
 * the composer holds Send while any field reports here, and says which.
 */
import { createContext, useCallback, useContext, useEffect, useState } from 'react';

type Report = (field: string, error: string | undefined) => void;

export const FieldErrorsContext = createContext<Report | undefined>(undefined);

/** The composer's side: every field's error by name, a reporter for its fields, and why Send waits. */
export function useFieldErrors(): { report: Report; blocked?: string } {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const report = useCallback<Report>(
    (field, error) =>
      setErrors((prev) => {
        if (prev[field] === error) return prev;
        const next = { ...prev };
        if (error === undefined) delete next[field];
        else next[field] = error;
        return next;
      }),
    [],
  );
  const first = Object.entries(errors)[0];
  return { report, blocked: first && `Fix ${first[0]} before sending: ${first[1]}` };
}

/** A field's side: reports its error while it has one, and none once it is gone. */
export function useReportFieldError(field: string | undefined, error: string | undefined): void {
  const report = useContext(FieldErrorsContext);
  useEffect(() => {
    if (!report || !field) return;
    report(field, error);
    return () => report(field, undefined);
  }, [report, field, error]);
}
