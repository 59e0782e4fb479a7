package paynotify.doctor;

/**
 * A key given inline ({@code key}, from the file or a PAYNOTIFY_* variable) or as a file ({@code key_file}): the key
 * that gave it, which a finding names, and its text, which none prints.
 */
record Given(String where, String text) {}
