/** 虎皮椒 (xunhupay): MD5 over every sorted form field and the APPSECRET, and the appid; paid at status OD. */
package paynotify.channel.xunhupay;
