/**
 * V免签 (vmqphp, Vmq), in only: a personal QR-code collector's GET, MD5 over the plain concatenation of five
 * values and the key, and the other readings that one sign covers ({@code VmqReadings}). Nothing is asked of it.
 */
package paynotify.channel.vmq;
