/**
 * 虎皮椒 (xunhupay), in only: MD5 over every sorted form field and the APPSECRET, and the appid; paid at status OD.
 * Nothing is asked of it.
 */
package paynotify.channel.xunhupay;
