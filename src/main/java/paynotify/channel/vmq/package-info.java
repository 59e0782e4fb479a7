/**
 * V免签 (vmqphp, Vmq): a personal QR-code collector's GET, MD5 over the plain concatenation of five values and
 * the key.
 */
package paynotify.channel.vmq;
