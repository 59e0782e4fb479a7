/** epay-style aggregators (易支付): MD5 over the sorted query, pid and key per merchant; GET or POST. */
package paynotify.channel.epay;
