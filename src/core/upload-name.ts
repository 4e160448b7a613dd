// An uploaded file's name as GitLab keeps it (UploadedFile#sanitize_filename, CarrierWave::SanitizedFile#sanitize):
// the name never carries a path, an encoded one (`..%2F`) included, so no upload can be stored or linked outside
// its own directory.

/** The last part of a path (`\` read as `/`, trailing slashes ignored as Ruby's File.basename does), every character
 * but letters, marks, digits, `_` `.` `-` `+` made `_`; a name of dots only gets a leading `_`, an empty one is `unnamed`. */
export function sanitizeUploadName(original: string): string {
  const path = original.replace(/\\/g, '/')
  const trimmed = path.replace(/\/+$/, '')
  const base = trimmed === '' ? path.slice(0, 1) : trimmed.slice(trimmed.lastIndexOf('/') + 1)
  const name = base.normalize('NFC').replace(/[^\p{L}\p{M}\p{Nd}\p{Pc}.\-+]/gu, '_')
  if (name === '') return 'unnamed'
  return /^\.+$/.test(name) ? `_${name}` : name
}
