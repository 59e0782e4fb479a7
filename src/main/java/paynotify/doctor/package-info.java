/**
 * {@code paynotify doctor}: a configuration looked over before it goes live, or when payments go through and the
 * site is never told. Checkup gathers the findings (what is wrong, where: the key or file, what to change) and
 * what was and was not looked at; KeyChecks reads each platform's keys from the settings before the start checks
 * them, its secrets through SecretFiles (every secret's file, by config/SecretFile's rules), its certificates'
 * dates through CertificateExpiry, and the string keys whose text says their kind and environment through
 * KeyShapes; DatabaseClock, RefusedNotifications (the notifications refused lately for their key, against the keys
 * configured now) and NotifyUrl look at what lies outside the file. The command itself is cli/DoctorCommand, which
 * opens the database as every tool does (its orders table checked there).
 */
package paynotify.doctor;
